// The one memo of the code base: results keyed by a tuple of keys, objects held weakly (an entry
// goes when any of its object keys is collected), so a memo beside a tree, a frame table or a
// column never keeps them alive. Primitive keys (a theme, a shape, a transform list's code) sit
// in ordinary Maps: the caller keeps their set small, or bounds it with `maxPrimitives`.

export type MemoKey = object | string | number | boolean;

interface Level<R> {
  weak?: WeakMap<object, Level<R>>;
  strong?: Map<MemoKey, Level<R>>;
  has: boolean;
  value?: R;
}

export interface MemoOptions {
  /** The most primitive keys kept at one level, the oldest dropped first; unbounded by default. */
  maxPrimitives?: number;
}

export class Memo<R> {
  private readonly root: Level<R> = { has: false };
  private readonly max: number;

  constructor(options: MemoOptions = {}) {
    this.max = options.maxPrimitives ?? Infinity;
  }

  /** The value memoised for `keys`, made by `make` (once) when there is none. */
  get(keys: readonly MemoKey[], make: () => R): R {
    const leaf = this.level(keys, true) as Level<R>;
    if (!leaf.has) {
      leaf.value = make();
      leaf.has = true;
    }
    return leaf.value as R;
  }

  /** The value memoised for `keys`, or undefined; memoises nothing. */
  peek(keys: readonly MemoKey[]): R | undefined {
    return this.level(keys, false)?.value;
  }

  private level(keys: readonly MemoKey[], create: boolean): Level<R> | undefined {
    let at = this.root;
    for (const key of keys) {
      const weak = typeof key === 'object' || typeof key === 'function';
      const map: WeakMap<object, Level<R>> | Map<MemoKey, Level<R>> | undefined = weak ? at.weak : at.strong;
      let next = weak ? (map as WeakMap<object, Level<R>> | undefined)?.get(key as object) : (map as Map<MemoKey, Level<R>> | undefined)?.get(key);
      if (!next) {
        if (!create) return undefined;
        next = { has: false };
        if (weak) (at.weak ??= new WeakMap()).set(key as object, next);
        else {
          const strong = (at.strong ??= new Map());
          if (strong.size >= this.max) strong.delete(strong.keys().next().value as MemoKey);
          strong.set(key, next);
        }
      }
      at = next;
    }
    return at;
  }
}
