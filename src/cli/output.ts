/** 0: no colour; 1-3: chalk's levels (basic, 256, truecolor). */
export type ColorLevel = 0 | 1 | 2 | 3;

/** The few decorations we use; identity functions when the stream gets no colour. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

const plain: Style = { bold: (t) => t, dim: (t) => t, red: (t) => t, green: (t) => t, yellow: (t) => t };

/** chalk is loaded only when some stream gets colour: scripts never pay for it. */
export async function styleFor(level: ColorLevel): Promise<Style> {
  if (level === 0) return plain;
  const { Chalk } = await import('chalk');
  return new Chalk({ level });
}

/**
 * The colour level of one stream. Off with --no-color, NO_COLOR (any non-empty value) or
 * FORCE_COLOR=0; forced on by FORCE_COLOR=1..3; otherwise on for a TTY only.
 */
export function colorLevel(
  isTTY: boolean,
  env: Readonly<Record<string, string | undefined>>,
  noColorFlag: boolean,
): ColorLevel {
  if (noColorFlag || (env.NO_COLOR ?? '') !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2' || force === '3') return Number(force) as ColorLevel;
    return 1;
  }
  if (!isTTY || env.TERM === 'dumb') return 0;
  return env.COLORTERM === 'truecolor' ? 3 : env.TERM?.includes('256') ? 2 : 1;
}
