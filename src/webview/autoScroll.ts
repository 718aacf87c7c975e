/**
 * Follows the stream only while the reader is at the bottom. Intent comes from input events (wheel,
 * keys, touch, scrollbar drag), never from scroll positions alone, so programmatic scrolls and layout
 * shifts can't be mistaken for the reader scrolling away.
 */

/** Within this many px of the bottom counts as "at the bottom". */
const BOTTOM_SLACK_PX = 30;
/** A scroll within this long after user input is the user's. */
const INPUT_WINDOW_MS = 800;
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
const NAV_KEYS = new Set(['ArrowDown', 'PageDown', 'End', ' ', ...UP_KEYS]);

/** Keeps a scroller pinned to its bottom while following; see the file comment. */
export class AutoScroll {
  private following = true;
  private lastTop = 0;
  private lastInputAt = -Infinity;
  private pointerDown = false;
  private stickFrame = 0;
  private readonly resizeObserver: ResizeObserver;

  constructor(
    private readonly scroller: HTMLElement,
    content: HTMLElement,
    private readonly jumpButton: HTMLElement,
    private readonly onChange: (fromBottom: number) => void = () => undefined,
  ) {
    // Any growth of the transcript (a rendered frame, a collapsed section, a resize) re-pins it.
    this.resizeObserver = new ResizeObserver(() => this.stick());
    this.resizeObserver.observe(content);
    this.resizeObserver.observe(scroller);
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    scroller.addEventListener('wheel', (event) => this.onWheel(event), { passive: true });
    scroller.addEventListener('touchmove', () => this.markInput(), { passive: true });
    scroller.addEventListener('keydown', (event) => this.onKey(event));
    scroller.addEventListener('pointerdown', () => {
      this.pointerDown = true;
      this.markInput();
    });
    window.addEventListener('pointerup', () => (this.pointerDown = false));
    jumpButton.addEventListener('click', () => this.jumpToLatest());
    this.update(true);
  }

  /** Whether new content scrolls into view. */
  get isFollowing(): boolean {
    return this.following;
  }

  /** Distance between the viewport's bottom and the content's end. */
  get fromBottom(): number {
    return Math.max(0, this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight);
  }

  /** Scrolls to the end and follows again (the reader sent a message or pressed "Jump to latest"). */
  jumpToLatest(): void {
    this.update(true);
    // On the next frame, before it paints: reading the height now would lay out what the caller has just
    // built inside the caller's task (a megabyte's answer opened from history: its layout and its parse in
    // one long task), and the frame lays it out anyway.
    this.stickFrame ||= requestAnimationFrame(() => {
      this.stickFrame = 0;
      this.stick();
    });
  }

  /** Restores a saved position: at the bottom follows, anywhere else stays put. */
  restore(fromBottom: number): void {
    if (fromBottom <= BOTTOM_SLACK_PX) {
      this.jumpToLatest();
      return;
    }
    this.update(false);
    this.setTop(this.scroller.scrollHeight - this.scroller.clientHeight - fromBottom);
  }

  /** Keeps the view still while content is inserted above it (older turns loaded). */
  preserveWhile(insert: () => void): void {
    const fromEnd = this.scroller.scrollHeight - this.scroller.scrollTop;
    insert();
    if (this.following) this.stick();
    else this.setTop(this.scroller.scrollHeight - fromEnd);
  }

  /** Pins to the bottom when following. */
  stick(): void {
    if (this.following && this.fromBottom > 0) this.setTop(this.scroller.scrollHeight);
  }

  private setTop(top: number): void {
    this.scroller.scrollTop = top;
    this.lastTop = this.scroller.scrollTop;
  }

  private markInput(): void {
    this.lastInputAt = performance.now();
  }

  private canScroll(): boolean {
    return this.scroller.scrollHeight > this.scroller.clientHeight;
  }

  private onWheel(event: WheelEvent): void {
    this.markInput();
    // Decide before the scroll lands, or the next frame would pull the reader back down.
    if (event.deltaY < 0 && this.canScroll()) this.update(false);
  }

  private onKey(event: KeyboardEvent): void {
    if (event.target !== this.scroller || !NAV_KEYS.has(event.key)) return;
    this.markInput();
    if (UP_KEYS.has(event.key) && this.canScroll()) this.update(false);
  }

  private onScroll(): void {
    const top = this.scroller.scrollTop;
    const userScrolled = this.pointerDown || performance.now() - this.lastInputAt < INPUT_WINDOW_MS;
    if (this.fromBottom <= BOTTOM_SLACK_PX) {
      if (userScrolled || this.following) this.update(true);
    } else if (userScrolled && top < this.lastTop) {
      this.update(false);
    }
    this.lastTop = top;
    this.onChange(this.fromBottom);
  }

  private update(following: boolean): void {
    this.following = following;
    this.jumpButton.hidden = following;
  }
}
