/**
 * The shell examples of a Markdown file, as the README test runs them:
 * - a ```sh block is a script, run as it stands;
 * - a ```console block is a terminal session: `$ command` lines, each followed by what it prints
 *   (stdout and stderr as a terminal shows them), where `…` stands for any text within a line;
 * - a block right after `<!-- readme-test: skip: why -->` is not run (it installs, runs for ever, or
 *   needs what a test machine has not), and says why.
 * Other blocks (```json, ```text) are not commands.
 */
export interface ShellBlock {
  kind: 'sh' | 'console';
  /** The line of the opening fence, 1-based, for messages. */
  line: number;
  body: string;
  skip?: string;
}

export interface ConsoleStep {
  command: string;
  expected: string[];
}

const SKIP = /^<!-- readme-test: skip: (.+) -->$/;

export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^```(\w*)\s*$/.exec(lines[i] as string);
    if (fence === null) continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`line ${i + 1}: a code block that never ends`);
    const kind = fence[1];
    if (kind === 'sh' || kind === 'console') {
      const skip = SKIP.exec(lines[i - 1] ?? '')?.[1];
      blocks.push({
        kind,
        line: i + 1,
        body: lines.slice(i + 1, end).join('\n'),
        ...(skip === undefined ? {} : { skip }),
      });
    }
    i = end;
  }
  return blocks;
}

/** The commands of a console block, each with the lines it is shown to print. */
export function consoleSteps(body: string): ConsoleStep[] {
  const steps: ConsoleStep[] = [];
  for (const line of body.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
    else if (steps.length === 0)
      throw new Error(`a console block must start with a "$ " command, not ${JSON.stringify(line)}`);
    else steps.at(-1)?.expected.push(line);
  }
  return steps;
}

/** Whether a line printed matches the line shown, where `…` in the shown one stands for any text. */
export function lineMatches(shown: string, printed: string): boolean {
  const pattern = shown
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(printed);
}
