/**
 * A failure after a command began writing its one JSON document on stdout (a list streamed page
 * by page, whose service went away part way): the failure is reported on stderr, so that stdout
 * never holds a second document after the first one's start. What stdout holds then is no whole
 * JSON document, which any reader of it finds, and the exit code says why.
 */
export class FailedMidDocument extends Error {
  constructor(override readonly cause: unknown) {
    super('failed part way through the JSON document on stdout');
    this.name = 'FailedMidDocument';
  }
}
