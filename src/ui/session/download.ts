/** Hands a file to the user through a temporary download link. */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name made from a run's name: safe characters only, at most 80 of them. */
export function fileName(name: string, ext: string): string {
  return `${name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'run'}.${ext}`;
}
