/**
 * Copies text to the clipboard. Self-hosted servers often run over plain http, where
 * navigator.clipboard does not exist, so the old selection-based copy is the fallback.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  try {
    area.select();
    if (!document.execCommand('copy')) throw new Error('the browser refused to copy');
  } finally {
    document.body.removeChild(area);
  }
}
