/**
 * A crawl's events, as a typed emitter (`on`) and as async iterators (`stream`): fetched,
 * skipped with the reason, waiting with until and why, failed, retry, and notices for a person.
 * A listener that throws is told about in a notice, never breaks the crawl.
 */
import type { CrawlEvent } from "../crawler.js";
import { describeError } from "../describe-error.js";

export type CrawlEventType = CrawlEvent["type"];
export type CrawlEventOf<T extends CrawlEventType> = Extract<CrawlEvent, { readonly type: T }>;

/**
 * Events an iterator holds for a reader that falls behind: past it the oldest are dropped and a
 * notice says how many, so that a slow reader costs bounded memory, not the crawl.
 */
export const MAX_BUFFERED_EVENTS = 10_000;

interface Reader {
  readonly buffer: CrawlEvent[];
  dropped: number;
  wake: (() => void) | null;
}

export class CrawlEvents {
  private readonly listeners = new Map<CrawlEventType, Set<(event: CrawlEvent) => void>>();
  private readonly readers = new Set<Reader>();
  private ended = false;
  private inListener = false;

  /** Calls `listener` with every event of `type`; returns the function that stops it. */
  on<T extends CrawlEventType>(type: T, listener: (event: CrawlEventOf<T>) => void): () => void {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set);
    const wrapped = listener as (event: CrawlEvent) => void;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  emit(event: CrawlEvent): void {
    for (const reader of this.readers) {
      if (reader.buffer.length >= MAX_BUFFERED_EVENTS) {
        reader.buffer.shift();
        reader.dropped++;
      }
      reader.buffer.push(event);
      reader.wake?.();
    }
    for (const listener of this.listeners.get(event.type) ?? []) {
      try {
        listener(event);
      } catch (error) {
        // Told once, not in a loop: a notice listener that throws is not told of itself.
        if (this.inListener) continue;
        this.inListener = true;
        try {
          this.emit({
            type: "notice",
            message: `an event listener threw: ${describeError(error)}`,
          });
        } finally {
          this.inListener = false;
        }
      }
    }
  }

  /** Every event from now until the crawl's run ends, in order. */
  stream(): AsyncIterableIterator<CrawlEvent> {
    const reader: Reader = { buffer: [], dropped: 0, wake: null };
    this.readers.add(reader);
    const done = (): IteratorResult<CrawlEvent> => {
      this.readers.delete(reader);
      return { done: true, value: undefined };
    };
    const iterator: AsyncIterableIterator<CrawlEvent> = {
      next: async () => {
        for (;;) {
          if (reader.dropped > 0) {
            const message = `${reader.dropped} events were dropped: the iterator was read too slowly`;
            reader.dropped = 0;
            return { done: false, value: { type: "notice", message } };
          }
          const event = reader.buffer.shift();
          if (event !== undefined) return { done: false, value: event };
          if (this.ended || !this.readers.has(reader)) return done();
          await new Promise<void>((resolve) => {
            reader.wake = resolve;
          });
          reader.wake = null;
        }
      },
      return: async () => done(),
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** A run began: iterators opened from now wait for its events. */
  begin(): void {
    this.ended = false;
  }

  /** The run ended: iterators give what they hold, then end. */
  end(): void {
    this.ended = true;
    for (const reader of this.readers) reader.wake?.();
  }
}
