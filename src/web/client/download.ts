/** Saves text as a file the browser downloads: made in the page, nothing sent anywhere. */
export function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once click() returns; the address is not needed after.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
