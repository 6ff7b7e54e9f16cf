/** What the log says of an outage, as it starts and as it ends. */
export interface OutageWords {
  /** The line as the outage starts, for the refusal that starts it (`cause`: what the caller said of it). */
  started(cause: string): string;
  /** The line as it ends (`why`: what ended it), with how many were refused meanwhile. */
  ended(why: string, refused: number): string;
  /** Why it ends when what it depends on works again. */
  recovered: string;
}

/** How long nothing may be refused after a success before an outage is over. */
export const QUIET_MS = 1_000;

/**
 * Something the service depends on that fails for a while (the store, accepting connections): the
 * log says so once as it starts, and once as it ends with how many were refused meanwhile; not a
 * line per refusal. It ends once something worked and nothing was refused for QUIET_MS: a full disk
 * still takes a small write now and then (the room left in a file's last block), and a process at
 * its open-file limit accepts a connection each time one closes; neither is a recovery, and each
 * would otherwise log the pair again. While it is on, /readyz answers 503.
 */
export class Outage {
  /** Since the first refusal: how many, when the last was, and the end waiting for the quiet. */
  private current: { refused: number; lastRefusal: number; ending?: ReturnType<typeof setTimeout> } | undefined;

  constructor(
    private readonly say: (line: string) => void,
    private readonly words: OutageWords,
  ) {}

  get isOut(): boolean {
    return this.current !== undefined;
  }

  /** A refusal: the first starts the outage, said with `cause`. */
  refused(cause = ''): void {
    const now = Date.now();
    if (this.current === undefined) {
      this.current = { refused: 1, lastRefusal: now };
      this.say(this.words.started(cause));
      return;
    }
    this.current.refused += 1;
    this.current.lastRefusal = now;
    clearTimeout(this.current.ending);
    delete this.current.ending;
  }

  /** What it depends on worked: the outage ends once nothing is refused for the quiet period after the last refusal. */
  worked(): void {
    const current = this.current;
    if (current === undefined || current.ending !== undefined) return;
    const wait = current.lastRefusal + QUIET_MS - Date.now();
    if (wait <= 0) this.end(this.words.recovered);
    else current.ending = setTimeout(() => this.end(this.words.recovered), wait).unref();
  }

  /** The server stops: an outage still on is accounted for. */
  stopped(): void {
    this.end('stopping');
  }

  private end(why: string): void {
    const current = this.current;
    if (current === undefined) return;
    clearTimeout(current.ending);
    this.current = undefined;
    this.say(this.words.ended(why, current.refused));
  }
}
