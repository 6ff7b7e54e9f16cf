/** Polls `condition` every 20 ms until it holds; fails, naming `what`, after `limitMs`. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  limitMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
