// Light and dark: the system's choice (prefers-color-scheme) unless the person picked one with the toggle.
// And the copy buttons of messages and code blocks, bound once for the whole page.
const KEY = 'brainstorm.theme';
const NEXT = { system: 'dark', dark: 'light', light: 'system' };
const LABELS = { system: 'Theme: system', dark: 'Theme: dark', light: 'Theme: light' };

function apply(choice) {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** Cycles system → dark → light, remembered in this browser. */
export function bindThemeToggle(button) {
  let choice = localStorage.getItem(KEY) ?? 'system';
  if (!NEXT[choice]) choice = 'system';
  const show = () => {
    apply(choice);
    button.textContent = LABELS[choice];
    button.setAttribute('aria-label', `${LABELS[choice]} (change)`);
  };
  button.addEventListener('click', () => {
    choice = NEXT[choice];
    localStorage.setItem(KEY, choice);
    show();
  });
  show();
}

function textToCopy(button) {
  if (button.dataset.copy === 'code') return button.parentElement?.querySelector('pre')?.textContent ?? '';
  return button.closest('.message')?.querySelector('.text')?.dataset.source ?? '';
}

async function copy(text) {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  const area = Object.assign(document.createElement('textarea'), { value: text });
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** One listener for every copy button on the page; the button says "Copied" for a moment. */
export function bindCopyButtons(root) {
  root.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-copy]');
    if (!button) return;
    copy(textToCopy(button)).then(
      () => {
        button.textContent = 'Copied';
        setTimeout(() => (button.textContent = 'Copy'), 1500);
      },
      () => (button.textContent = 'Copy failed'),
    );
  });
}
