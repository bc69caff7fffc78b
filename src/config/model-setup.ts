/**
 * What a first start without a model says: which key is missing, where requests go by default
 * (DeepSeek's endpoint, through the OpenAI-compatible Chat Completions API), and the lines to copy
 * for each provider and for models.json. Shown at once by the TUI and with print mode's error.
 */
import { isModelSetting } from './dotenv.js';
import { type ModelSettings, PROVIDER_ENV } from './model-settings.js';

/** The "no key" line: `.env` is advised only for a variable a project's `.env` may set. */
export function missingKeyMessage(keyVariable: string): string {
  return isModelSetting(keyVariable)
    ? `${keyVariable} is not set: export it or add it to a trusted folder's .env (see .env.example)`
    : `${keyVariable} is not set: export it in the shell that starts geekagent (a .env file sets only OPENAI_*, ANTHROPIC_*, GEMINI_*, GOOGLE_GEMINI_BASE_URL and GEEKAGENT_* settings)`;
}

/** The lines to copy for each provider, and a models.json entry; `modelsFile` is its path. */
export function modelSetupLines(settings: ModelSettings, modelsFile: string): string[] {
  const key = settings.keyVariable;
  const where =
    settings.provider === 'openai' && settings.baseURL === PROVIDER_ENV.openai.defaultBaseURL
      ? `The default is DeepSeek's endpoint: ${settings.baseURL}, model ${settings.model}.`
      : `Requests would go to ${settings.baseURL} (${settings.provider} · ${settings.model}).`;
  return [
    `No model configured: ${key} is not set.`,
    where,
    isModelSetting(key)
      ? "Set one provider in the shell (or in a trusted folder's .env), e.g.:"
      : `Set ${key} in the shell that starts geekagent (a .env file cannot set it), or another provider, e.g.:`,
    '  DeepSeek:   export OPENAI_API_KEY=sk-...',
    '  OpenAI:     export GEEKAGENT_PROVIDER=openai-responses OPENAI_API_KEY=sk-...',
    '  Anthropic:  export GEEKAGENT_PROVIDER=anthropic ANTHROPIC_API_KEY=sk-ant-...',
    '  Gemini:     export GEEKAGENT_PROVIDER=gemini GEMINI_API_KEY=...',
    '  Local:      export OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3 OPENAI_API_KEY=none',
    `Or name models in ${modelsFile}, e.g.`,
    '  {"models": {"claude": {"provider": "anthropic", "model": "claude-sonnet-4-5"}}}',
    'and start with --model NAME or switch with /model NAME. More: docs/providers.md',
  ];
}
