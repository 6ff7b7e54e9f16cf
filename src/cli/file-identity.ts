/** A file's identity, `dev:ino`, from its stat; undefined if it has none (closed, absent). */
export function fileIdentity(stat: () => { dev: number; ino: number }): string | undefined {
  try {
    const info = stat();
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}
