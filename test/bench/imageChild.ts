/** Child process of case 5: one measured image run in a fresh process, so memory levels start clean. */
import { measureImages, type ImageJob } from './imageWork';
import { flag } from '../support/args';

/** Reads the job from argv, measures, prints the result as one JSON line and exits. */
export async function imageChild(argv: readonly string[]): Promise<void> {
  const arg = (name: string): string => flag(name, argv) ?? '';
  const kind = arg('kind') === 'baseline' ? 'baseline' : 'ours';
  const job = JSON.parse(arg('job')) as ImageJob;
  const result = await measureImages(kind, job);
  console.log(JSON.stringify(result));
  process.exit(0);
}
