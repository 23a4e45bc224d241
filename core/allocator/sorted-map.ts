/**
 * An ordered map from bigint keys to values on an AVL tree: insert, delete, floor and ceiling in
 * O(log n). The allocator keys it by address (or address slot), so a pool of any size costs memory in
 * proportion to what is allocated, never to its size.
 */

/** A live entry of the map. `value` may be changed in place; the key only through `SortedMap.rekey`. */
export interface Entry<V> {
  readonly key: bigint;
  value: V;
}

interface Node<V> {
  key: bigint;
  value: V;
  left: Node<V> | undefined;
  right: Node<V> | undefined;
  height: number;
}

export class SortedMap<V> {
  private root: Node<V> | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: bigint): V | undefined {
    let n = this.root;
    while (n) {
      if (key === n.key) return n.value;
      n = key < n.key ? n.left : n.right;
    }
    return undefined;
  }

  /** Inserts or replaces the value under `key`. */
  set(key: bigint, value: V): void {
    this.root = this.insert(this.root, key, value);
  }

  /** Removes `key`; returns whether it was present. */
  delete(key: bigint): boolean {
    const before = this.count;
    this.root = this.remove(this.root, key);
    return this.count < before;
  }

  /** The entry with the greatest key ≤ `key`. */
  floor(key: bigint): Entry<V> | undefined {
    let n = this.root;
    let best: Node<V> | undefined;
    while (n) {
      if (n.key === key) return n;
      if (n.key < key) {
        best = n;
        n = n.right;
      } else {
        n = n.left;
      }
    }
    return best;
  }

  /** The entry with the least key ≥ `key`. */
  ceiling(key: bigint): Entry<V> | undefined {
    let n = this.root;
    let best: Node<V> | undefined;
    while (n) {
      if (n.key === key) return n;
      if (n.key > key) {
        best = n;
        n = n.left;
      } else {
        n = n.right;
      }
    }
    return best;
  }

  /** Entries with keys ≥ `from`, in ascending order; the map must not change during the walk. */
  *entriesFrom(from: bigint): Generator<Entry<V>> {
    const stack: Node<V>[] = [];
    let n = this.root;
    // Descend to `from`, keeping every node whose key is ≥ it: those are the ones still to visit.
    while (n) {
      if (n.key >= from) {
        stack.push(n);
        n = n.left;
      } else {
        n = n.right;
      }
    }
    while (stack.length > 0) {
      const top = stack.pop()!;
      yield top;
      for (let c = top.right; c; c = c.left) stack.push(c);
    }
  }

  /**
   * Changes an entry's key in place, in O(1). The caller guarantees that the new key still lies
   * strictly between the keys of the entry's neighbours, so the tree order holds; FreeSlots uses this
   * to grow or shrink an interval at its low end without a delete and an insert.
   */
  rekey(entry: Entry<V>, key: bigint): void {
    (entry as Node<V>).key = key;
  }

  private insert(n: Node<V> | undefined, key: bigint, value: V): Node<V> {
    if (!n) {
      this.count++;
      return { key, value, left: undefined, right: undefined, height: 1 };
    }
    if (key === n.key) {
      n.value = value;
      return n;
    }
    if (key < n.key) n.left = this.insert(n.left, key, value);
    else n.right = this.insert(n.right, key, value);
    return rebalance(n);
  }

  private remove(n: Node<V> | undefined, key: bigint): Node<V> | undefined {
    if (!n) return undefined;
    if (key < n.key) {
      n.left = this.remove(n.left, key);
    } else if (key > n.key) {
      n.right = this.remove(n.right, key);
    } else {
      this.count--;
      if (!n.left) return n.right;
      if (!n.right) return n.left;
      // Relink the successor node in n's place rather than copying its key and value into n, so
      // entries handed out earlier keep naming the key they were handed out for.
      let successor = n.right;
      while (successor.left) successor = successor.left;
      successor.right = removeMin(n.right);
      successor.left = n.left;
      return rebalance(successor);
    }
    return rebalance(n);
  }
}

function removeMin<V>(n: Node<V>): Node<V> | undefined {
  if (!n.left) return n.right;
  n.left = removeMin(n.left);
  return rebalance(n);
}

const heightOf = <V>(n: Node<V> | undefined): number => (n ? n.height : 0);

function update<V>(n: Node<V>): void {
  n.height = 1 + Math.max(heightOf(n.left), heightOf(n.right));
}

function rotateRight<V>(n: Node<V>): Node<V> {
  const l = n.left!;
  n.left = l.right;
  l.right = n;
  update(n);
  update(l);
  return l;
}

function rotateLeft<V>(n: Node<V>): Node<V> {
  const r = n.right!;
  n.right = r.left;
  r.left = n;
  update(n);
  update(r);
  return r;
}

function rebalance<V>(n: Node<V>): Node<V> {
  update(n);
  const balance = heightOf(n.left) - heightOf(n.right);
  if (balance > 1) {
    if (heightOf(n.left!.left) < heightOf(n.left!.right)) n.left = rotateLeft(n.left!);
    return rotateRight(n);
  }
  if (balance < -1) {
    if (heightOf(n.right!.right) < heightOf(n.right!.left)) n.right = rotateRight(n.right!);
    return rotateLeft(n);
  }
  return n;
}
