/**
 * When the TUI's listeners hear of a change: once per tick, since a streamed reply brings hundreds
 * of text deltas in one burst and each would otherwise cost a full render. The model's events are
 * `paced`: at most one update per frame, so layout never starves the keys; what the person did and
 * the turn's end draw on the next tick, not behind the stream's frame.
 */

/**
 * The shortest time between two screen updates the session asks for (20 a second). Keys do not
 * wait for it: the input line is the screen's own state and draws at once.
 */
const FRAME_MS = 50;
/** …and the longest: however slow drawing gets, the screen still follows a few times a second. */
const MAX_FRAME_MS = 250;

export class FramePacer {
  private scheduled: NodeJS.Immediate | NodeJS.Timeout | undefined;
  /** The scheduled update waits out the frame gap (a timer), rather than the next tick. */
  private paced = false;
  private notifiedAt = 0;
  /** The wait between two updates: `FRAME_MS`, longer while frames are slow to draw. */
  private frameGap = FRAME_MS;

  constructor(private readonly notifyListeners: () => void) {}

  /** Something changed: listeners hear of it on the next tick, or within the frame when `paced`. */
  request(paced: boolean): void {
    if (this.scheduled && this.paced && !paced) {
      clearTimeout(this.scheduled as NodeJS.Timeout);
      this.scheduled = undefined;
    }
    if (this.scheduled) return;
    const wait = paced ? this.notifiedAt + this.frameGap - Date.now() : 0;
    this.paced = wait > 0;
    this.scheduled = wait > 0 ? setTimeout(this.notify, wait) : setImmediate(this.notify);
  }

  dispose(): void {
    if (!this.scheduled) return;
    clearImmediate(this.scheduled as NodeJS.Immediate);
    clearTimeout(this.scheduled as NodeJS.Timeout);
    this.scheduled = undefined;
  }

  private readonly notify = (): void => {
    this.scheduled = undefined;
    const started = Date.now();
    this.notifiedAt = started;
    this.notifyListeners();
    // React and Ink draw in the microtasks after this: by the next macrotask the frame is done.
    // The next one waits twice as long as this one took, so drawing takes at most a third of the
    // time however loaded the machine is (wall time counts the waits for a CPU), and keys and the
    // stream keep the rest.
    setImmediate(() => {
      this.frameGap = Math.min(MAX_FRAME_MS, Math.max(FRAME_MS, 2 * (Date.now() - started)));
    });
  };
}
