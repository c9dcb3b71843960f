// "The latest request wins", the one way the code drops overtaken answers: a request takes a
// number, a newer request (or a cancel) makes every earlier number stale, and an answer is used
// only while its number is the latest. Numbers only grow, so they can travel to a worker, whose
// session keeps its own Latest and `observe`s the numbers it is sent.

export class Latest {
  private last = 0;

  /** A new request's number; every earlier one is stale from now on. */
  next(): number {
    return ++this.last;
  }

  /** Whether the answer to request `n` is still wanted. */
  isLatest(n: number): boolean {
    return n === this.last;
  }

  /** Makes every request in flight stale (the answer is no longer wanted). */
  cancel(): void {
    this.last++;
  }

  /** For the receiver of numbered requests: notes `n`, and tells whether no newer one was seen. */
  observe(n: number): boolean {
    if (n > this.last) this.last = n;
    return n === this.last;
  }
}

/** Small dense ids for objects (1, 2, 3, … in order of first sight), held weakly. */
export class ObjectIds<T extends object> {
  private readonly ids = new WeakMap<T, number>();
  private next = 1;

  of(value: T): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.next++));
    return id;
  }
}
