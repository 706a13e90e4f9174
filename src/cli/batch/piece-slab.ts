/**
 * Byte pieces of answer lines, made once and written many times (`LineBytes.piece`): each is
 * a view into a shared slab. A Uint8Array of its own would cost a backing store each, more
 * than the few uses most pieces get; a view costs an object.
 */
const SLAB_BYTES = 256 * 1024;
const EMPTY = new Uint8Array(0);

export class PieceSlab {
  // Made at the first piece: a field written once is taken by V8's compiler to be constant,
  // and the code that took it so is thrown away when a full slab is replaced.
  private slab = EMPTY;
  private used = 0;

  /** A copy of `bytes`, kept as long as the view returned is. */
  copyOf(bytes: Uint8Array): Uint8Array {
    const piece = this.take(bytes.length);
    piece.set(bytes);
    return piece;
  }

  /** `a`, `b` and `c` one after the other, as {@link copyOf} keeps them. */
  join(a: Uint8Array, b: Uint8Array, c: Uint8Array): Uint8Array {
    const piece = this.take(a.length + b.length + c.length);
    piece.set(a);
    piece.set(b, a.length);
    piece.set(c, a.length + b.length);
    return piece;
  }

  private take(n: number): Uint8Array {
    if (this.used + n > this.slab.length) {
      // A full slab is left to its views: it is freed when the last of them is.
      this.slab = new Uint8Array(Math.max(SLAB_BYTES, n));
      this.used = 0;
    }
    const piece = this.slab.subarray(this.used, this.used + n);
    this.used += n;
    return piece;
  }
}
