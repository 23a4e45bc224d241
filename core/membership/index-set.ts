/**
 * A set of small integers (ring indices) with O(1) add, delete and uniform random pick: the shape gossip
 * wants for "F random alive members" at 2000 nodes without scanning the table.
 */
export class IndexSet {
  private readonly items: Int32Array;
  private readonly pos: Int32Array;
  private count = 0;

  constructor(capacity: number) {
    this.items = new Int32Array(capacity);
    this.pos = new Int32Array(capacity).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  has(i: number): boolean {
    return this.pos[i]! >= 0;
  }

  add(i: number): void {
    if (this.pos[i]! >= 0) return;
    this.pos[i] = this.count;
    this.items[this.count++] = i;
  }

  delete(i: number): void {
    const p = this.pos[i]!;
    if (p < 0) return;
    const last = this.items[--this.count]!;
    this.items[p] = last;
    this.pos[last] = p;
    this.pos[i] = -1;
  }

  /** The k-th member in internal order (k < size); with a random k, a uniform pick. */
  at(k: number): number {
    return this.items[k]!;
  }
}
