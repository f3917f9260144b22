/** Saves text the browser made (a CSV export) as a file, through a temporary object URL. */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled (a synchronous revoke can cancel the download in some browsers).
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
