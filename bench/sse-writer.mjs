/**
 * How the bench server puts SSE frames on the socket for the realistic workloads:
 *   '32k'   frames packed into writes of about 32 KB (a server flushing a buffer)
 *   'frame' ONE `res.write` per frame, then the event loop turns (setImmediate, or 'drain' under
 *           backpressure) before the next, so each frame leaves as its own TCP segment — how servers
 *           flush model tokens. `gapUs` > 0 also spaces frames by that many µs (busy wait on the
 *           server's own core) so a slow client (under valgrind) still reads one frame per read.
 *   'paced' ONE `res.write` per frame, `gapUs` apart on a timer (no busy wait, so a thousand streams
 *           can be paced side by side): a model emitting tokens at its own pace.
 */

const BATCH_BYTES = 32 * 1024;

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Busy-waits until `deadline` (process.hrtime.bigint()), letting the event loop turn now and then. */
async function waitUntil(deadline) {
  while (process.hrtime.bigint() < deadline) {
    if (deadline - process.hrtime.bigint() > 2_000_000n) await new Promise((r) => setTimeout(r, 1));
  }
}

/** Writes `chunk`; resolves once the socket accepts more (after 'drain' when the write was refused). */
function write(res, chunk) {
  if (res.write(chunk)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Frames packed into ~32 KB writes: `count` updates between `frames.first` and `frames.last`. */
export async function writeBatched(res, frames, count) {
  const perWrite = Math.max(1, Math.floor(BATCH_BYTES / Buffer.byteLength(frames.update)));
  const full = frames.update.repeat(perWrite);
  let chunk = frames.first;
  let sent = 0;
  while (sent < count) {
    const n = Math.min(perWrite - (sent === 0 ? 1 : 0), count - sent);
    chunk += n === perWrite ? full : frames.update.repeat(n);
    sent += n;
    if (sent === count) chunk += frames.last;
    const wait = write(res, chunk);
    chunk = '';
    if (wait) await wait;
    if (res.destroyed) return;
  }
  if (count === 0) res.write(chunk + frames.last);
  res.end();
}

/** One socket write per frame, the event loop turning in between (and `gapUs` µs apart when set). */
export async function writePerFrame(res, frames, count, gapUs = 0) {
  const gap = BigInt(Math.round(gapUs * 1000));
  let next = process.hrtime.bigint();
  const send = async (frame) => {
    if (gap > 0n) {
      next += gap;
      await waitUntil(next);
    }
    const wait = write(res, frame);
    await (wait ?? turn());
  };
  await send(frames.first);
  for (let i = 0; i < count && !res.destroyed; i++) await send(frames.update);
  if (!res.destroyed) res.end(frames.last);
}

/**
 * One socket write per frame, every `gapUs` µs on a timer (the `paced` workload: many streams side by
 * side). Frames are due on a fixed schedule from the first, so timer lateness does not add up.
 */
export async function writePaced(res, frames, count, gapUs) {
  const gapMs = Math.max(1, gapUs / 1000);
  let due = performance.now();
  res.write(frames.first);
  for (let i = 0; i < count && !res.destroyed; i++) {
    due += gapMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    if (!res.destroyed) await write(res, frames.update);
  }
  if (!res.destroyed) res.end(frames.last);
}
