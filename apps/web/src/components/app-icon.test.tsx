import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/render.tsx';
import { AppIcon } from './app-icon.tsx';

const stylesOfPage = () => [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n');

describe("an app's icon", () => {
  it('draws a stored colour only when it is a colour, so no stored text becomes a rule of the page', () => {
    renderWithProviders(
      <>
        <AppIcon
          app={{
            id: 'bash',
            title: 'Bash',
            icon: '',
            color: 'red;}body{background:url(https://evil.example/leak)}',
            dark_color: '',
          }}
        />
        <AppIcon app={{ id: 'python', title: 'Python', icon: '', color: '#3572a5', dark_color: '' }} />
      </>,
    );
    const styles = stylesOfPage();
    expect(styles).not.toContain('evil.example');
    expect(styles).toContain('#3572a5');
  });
});
