/**
 * Which counters of one sender we accepted lately: the highest, and a bitmap of the 64 below it (as
 * IPsec's anti-replay window, RFC 4303 §3.4.3, so datagrams reordered on the way are still taken once).
 * Anything at or below the window's floor, or seen already, is a replay.
 */
export class ReplayWindow {
  static readonly SIZE = 64;
  private highest: number;
  /** Bit k of (low, high): counter `highest - k` was accepted (bit 0 is `highest` itself). */
  private low = 1;
  private high = 0;

  constructor(first: number) {
    this.highest = first;
  }

  /** Records `counter` and says whether it is new; a replay changes nothing. */
  accept(counter: number): boolean {
    if (counter > this.highest) {
      this.shift(counter - this.highest);
      this.highest = counter;
      this.low |= 1;
      return true;
    }
    const k = this.highest - counter;
    if (k >= ReplayWindow.SIZE) return false;
    const word = k < 32 ? this.low : this.high;
    const bit = 1 << (k % 32);
    if ((word & bit) !== 0) return false;
    if (k < 32) this.low |= bit;
    else this.high |= bit;
    return true;
  }

  private shift(by: number): void {
    if (by >= ReplayWindow.SIZE) {
      this.low = 0;
      this.high = 0;
    } else if (by >= 32) {
      this.high = this.low << (by - 32);
      this.low = 0;
    } else {
      this.high = (this.high << by) | (this.low >>> (32 - by));
      this.low <<= by;
    }
  }
}
