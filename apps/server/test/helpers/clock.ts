/** A clock the test moves by hand; the app and the client read the same one. */
export class TestClock {
  private current: number;

  constructor(start = Date.now()) {
    this.current = start;
  }

  readonly now = (): number => this.current;

  advance(ms: number): void {
    this.current += ms;
  }

  set(ms: number): void {
    this.current = ms;
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
