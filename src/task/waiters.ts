/**
 * Waiting inside a task object: executor runs of one task take turns (one at a time, in arrival order),
 * and callers wait until an event makes a condition true, reading the answer at that very moment.
 */
export class Waiters {
  #turn: Promise<void> = Promise.resolve();
  readonly #waiters = new Set<() => void>();

  /** Executor runs of one task happen one at a time, in arrival order. */
  async takeTurn(): Promise<() => void> {
    const previous = this.#turn;
    let release!: () => void;
    this.#turn = new Promise((resolve) => (release = resolve));
    await previous;
    return release;
  }

  /** Resolves with the probe's first defined value, computed right when an event made it so. */
  until<T>(probe: () => T | undefined): Promise<T> {
    const now = probe();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve) => {
      const check = () => {
        const value = probe();
        if (value === undefined) return;
        this.#waiters.delete(check);
        resolve(value);
      };
      this.#waiters.add(check);
    });
  }

  notify(): void {
    for (const check of [...this.#waiters]) check();
  }

}
