/** The 28-column side panel: the core rows and every extension's rows, in panel order. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import { PANEL_WIDTH, panelRows } from '../panel-lines.js';
import type { PanelData } from '../types.js';

/** Memoised: a keystroke redraws the screen with the same panel data. */
export const Panel = memo(function Panel({ data }: { data: PanelData }) {
  return (
    <Box
      flexDirection="column"
      width={PANEL_WIDTH}
      flexShrink={0}
      borderStyle="single"
      borderTop={false}
      borderRight={false}
      borderBottom={false}
      borderDimColor
      paddingLeft={1}
      overflow="hidden"
    >
      {/* Rows keep their height on a short terminal: the panel is clipped, never squeezed. */}
      <Box flexDirection="column" flexShrink={0}>
        {panelRows(data).map((row) => (
          <Text key={`${row.order}:${row.label}`} wrap="wrap">
            {row.label ? <Text bold>{row.label}</Text> : null}
            {row.label ? ' ' : ''}
            {row.value}
          </Text>
        ))}
      </Box>
    </Box>
  );
});
