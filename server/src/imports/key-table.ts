/**
 * A map from import keys to a number, built for a million keys: digit keys (phone numbers) live in
 * an open-addressing table of typed arrays — 16 bytes a slot, nothing for the garbage collector —
 * and any other key in a plain Map.
 */
export class KeyTable {
  private keys = new Float64Array(1 << 16);
  private values = new Float64Array(1 << 16);
  private used = new Uint8Array(1 << 16);
  private count = 0;
  private readonly other = new Map<string, number>();

  /** digits without a leading zero, short enough to be an exact number */
  private static numeric(k: string): boolean {
    return k.length > 0 && k.length <= 15 && k.charCodeAt(0) !== 48 && /^\d+$/.test(k);
  }

  private slot(key: number): number {
    const mask = this.keys.length - 1;
    // multiplicative hash of the number's low and high parts
    let h = (Math.imul((key % 4294967296) | 0, 0x9e3779b1) ^ Math.imul((key / 4294967296) | 0, 0x85ebca6b)) & mask;
    while (this.used[h] && this.keys[h] !== key) h = (h + 1) & mask;
    return h;
  }

  get(k: string): number | undefined {
    if (!KeyTable.numeric(k)) return this.other.get(k);
    const h = this.slot(Number(k));
    return this.used[h] ? this.values[h] : undefined;
  }

  set(k: string, value: number): void {
    if (!KeyTable.numeric(k)) {
      this.other.set(k, value);
      return;
    }
    const key = Number(k);
    let h = this.slot(key);
    if (!this.used[h]) {
      if ((this.count + 1) * 2 > this.keys.length) {
        this.grow();
        h = this.slot(key);
      }
      this.used[h] = 1;
      this.keys[h] = key;
      this.count++;
    }
    this.values[h] = value;
  }

  private grow(): void {
    const { keys, values, used } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Float64Array(keys.length * 2);
    this.used = new Uint8Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (!used[i]) continue;
      const h = this.slot(keys[i] as number);
      this.used[h] = 1;
      this.keys[h] = keys[i] as number;
      this.values[h] = values[i] as number;
    }
  }

  get size(): number {
    return this.count + this.other.size;
  }
}
