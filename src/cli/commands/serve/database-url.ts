/** Whether `text` is a URL the PostgreSQL store takes: `postgres://…` or `postgresql://…`. */
export function isDatabaseUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text) && URL.canParse(text);
}
