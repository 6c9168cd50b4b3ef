import { createContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { storage } from '../lib/storage.ts';
import { useProvidedContext } from '../lib/use-provided-context.ts';
import { createAppTheme } from './theme.ts';
import type { ColorMode } from './theme.ts';

interface ColorModeApi {
  mode: ColorMode;
  setMode: (mode: ColorMode) => void;
}

const ColorModeContext = createContext<ColorModeApi | null>(null);

/** Until the user flips the switch, the operating system's preference decides. */
function getInitialMode(): ColorMode {
  const stored = storage.getDarkMode();
  if (stored !== null) return stored ? 'dark' : 'light';
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  const [mode, setModeState] = useState<ColorMode>(getInitialMode);
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  const api = useMemo<ColorModeApi>(
    () => ({
      mode,
      setMode: (next) => {
        storage.setDarkMode(next === 'dark');
        setModeState(next);
      },
    }),
    [mode],
  );
  return (
    <ColorModeContext.Provider value={api}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
}

export function useColorMode(): ColorModeApi {
  return useProvidedContext(ColorModeContext, 'useColorMode', 'ColorModeProvider');
}
