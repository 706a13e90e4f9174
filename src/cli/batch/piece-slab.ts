/**
 * Byte pieces of answer lines, made once and written many times (`LineBytes.piece`): each is
 * a view into a shared slab. A Uint8Array of its own would cost a backing store each, more
 * than the few uses most pieces get; a view costs an object.
 */
const SLAB_BYTES = 256 * 1024;

export class PieceSlab {
  private slab = new Uint8Array(SLAB_BYTES);
  private used = 0;

  /** A copy of `bytes`, kept as long as the view returned is. */
  copyOf(bytes: Uint8Array): Uint8Array {
    const n = bytes.length;
    if (this.used + n > this.slab.length) {
      // A full slab is left to its views: it is freed when the last of them is.
      this.slab = new Uint8Array(Math.max(SLAB_BYTES, n));
      this.used = 0;
    }
    const piece = this.slab.subarray(this.used, this.used + n);
    piece.set(bytes);
    this.used += n;
    return piece;
  }
}
