/**
 * What a suite's beforeAll starts (a Chromium, a sidebar host and its worker thread, a
 * playground), for its afterAll to stop. Each is kept as soon as it has started: when the
 * beforeAll fails or runs out of time while something is still starting (a busy machine), the
 * afterAll waits for it and stops it too, where a variable assigned at the end of the beforeAll
 * would have stayed empty and the thing started would have outlived the file, keeping its jest
 * worker alive ("A worker process has failed to exit gracefully").
 */
export class Started {
  private readonly starting: Promise<(() => Promise<void>) | undefined>[] = [];

  /** `start`'s result once it has started; `stop` stops it at stopAll. */
  keep<T>(start: Promise<T>, stop: (started: T) => Promise<void>): Promise<T> {
    this.starting.push(
      start.then(
        started => () => stop(started),
        () => undefined,
      ),
    );
    return start;
  }

  /** Stops all kept, the last kept first, once each has started or failed to. */
  async stopAll(): Promise<void> {
    const stops = await Promise.all(this.starting.splice(0));
    for (const stop of stops.reverse()) await stop?.();
  }
}
