/** Hides the password of a connection URL (PostgreSQL, Redis, MQTT) before it is printed. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
