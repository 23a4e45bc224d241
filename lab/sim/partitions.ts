/** One cut between two groups of hosts; frames between them are dropped at every switch until healed. */
export class Partition {
  constructor(
    readonly a: ReadonlySet<string>,
    readonly b: ReadonlySet<string>,
    private readonly owner: Partitions,
  ) {}

  heal(): void {
    this.owner.remove(this);
  }

  /** @internal */
  separates(x: string, y: string): boolean {
    return (this.a.has(x) && this.b.has(y)) || (this.a.has(y) && this.b.has(x));
  }
}

/**
 * The cuts in force. A cut is two sets, not every pair, so partitioning 1000 hosts from 1000 others costs
 * 2000 entries, and a check is a few set lookups per active cut.
 */
export class Partitions {
  private readonly active = new Set<Partition>();

  constructor(private readonly onHeal: (p: Partition) => void) {}

  get any(): boolean {
    return this.active.size > 0;
  }

  add(a: readonly string[], b: readonly string[]): Partition {
    const p = new Partition(new Set(a), new Set(b), this);
    this.active.add(p);
    return p;
  }

  remove(p: Partition): void {
    if (this.active.delete(p)) this.onHeal(p);
  }

  clear(): void {
    for (const p of [...this.active]) this.remove(p);
  }

  blocks(x: string, y: string): boolean {
    for (const p of this.active) if (p.separates(x, y)) return true;
    return false;
  }
}
