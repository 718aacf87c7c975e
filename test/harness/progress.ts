// One progress line per set-up step: what it does and roughly how long it takes, then "done in N s".

/** Runs `work` as one step: one line on a terminal (its timer updated in place), two lines otherwise. */
export async function step<T>(
  prefix: string,
  what: string,
  estimate: string,
  work: () => Promise<T>,
  tty = Boolean(process.stdout.isTTY),
): Promise<T> {
  const started = Date.now();
  const seconds = (): number => Math.round((Date.now() - started) / 1000);
  const head = `${prefix} ${what} (${estimate})…`;
  if (!tty) {
    console.log(head);
    try {
      const result = await work();
      console.log(`${prefix}   done in ${seconds()} s`);
      return result;
    } catch (error) {
      console.log(`${prefix}   failed after ${seconds()} s`);
      throw error;
    }
  }
  let shown = '';
  // Only the tail after the head is rewritten (backspaces), so the line updates in place.
  const draw = (tail: string): void => {
    process.stdout.write('\b'.repeat(shown.length) + tail.padEnd(shown.length));
    shown = tail.padEnd(shown.length);
  };
  process.stdout.write(`${head} `);
  const timer = setInterval(() => draw(`${seconds()} s`), 1000);
  try {
    const result = await work();
    draw(`done in ${seconds()} s`);
    return result;
  } catch (error) {
    draw(`failed after ${seconds()} s`);
    throw error;
  } finally {
    clearInterval(timer);
    process.stdout.write('\n');
  }
}
