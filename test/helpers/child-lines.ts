/** Reading a child process's output a line at a time, as a program driving it would. */

/** Lines of a child's stdout, one at a time, each awaited with a hang guard. */
export function lineReader(stream: NodeJS.ReadableStream): () => Promise<string> {
  let buffered = "";
  const waiting: ((line: string) => void)[] = [];
  stream.setEncoding("utf8");
  stream.on("data", (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      waiting.shift()?.(line);
    }
  });
  return () =>
    new Promise((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error("no answer within 30 s")), 30_000);
      waiting.push((line) => {
        clearTimeout(guard);
        resolve(line);
      });
    });
}
