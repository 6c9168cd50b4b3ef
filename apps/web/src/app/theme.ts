import { alpha, createTheme } from '@mui/material/styles';
import type { Theme } from '@mui/material/styles';

export type ColorMode = 'light' | 'dark';

const FONT_STACK = [
  'Inter',
  'Roboto',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  '"Helvetica Neue"',
  '"DejaVu Sans"',
  'Arial',
  'sans-serif',
].join(',');

export function createAppTheme(mode: ColorMode): Theme {
  const light = mode === 'light';
  const theme = createTheme({
    // md is the seed's 960 px mobile breakpoint.
    breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920 } },
    palette: light
      ? {
          mode,
          primary: { main: '#1d5fd1' },
          secondary: { main: '#475569' },
          background: { default: '#f5f6f8', paper: '#ffffff' },
          divider: 'rgba(15, 23, 42, 0.1)',
          text: { primary: '#111827', secondary: '#5b6474' },
        }
      : {
          mode,
          primary: { main: '#6ea8ff' },
          secondary: { main: '#94a3b8' },
          background: { default: '#0e1116', paper: '#161a21' },
          divider: 'rgba(255, 255, 255, 0.1)',
          text: { primary: '#e6e9ef', secondary: '#9aa3b2' },
        },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: FONT_STACK,
      h5: { fontSize: '1.375rem', letterSpacing: '-0.01em' },
      h6: { fontSize: '1.0625rem' },
      button: { textTransform: 'none', fontWeight: 600 },
    },
  });

  return createTheme(theme, {
    components: {
      MuiCssBaseline: {
        styleOverrides: { body: { WebkitFontSmoothing: 'antialiased' } },
      },
      MuiPaper: { styleOverrides: { outlined: { borderColor: theme.palette.divider } } },
      MuiDialog: { styleOverrides: { paper: { borderRadius: 12, backgroundImage: 'none' } } },
      MuiDialogTitle: { styleOverrides: { root: { fontWeight: 600, fontSize: '1.125rem' } } },
      MuiTableCell: {
        styleOverrides: {
          root: { borderBottomColor: theme.palette.divider },
          head: {
            fontWeight: 600,
            fontSize: '0.8125rem',
            color: theme.palette.text.secondary,
            backgroundColor: light ? '#fafbfc' : alpha('#ffffff', 0.02),
          },
        },
      },
      MuiListItemButton: {
        styleOverrides: {
          root: {
            borderRadius: 6,
            '&.Mui-selected': {
              backgroundColor: alpha(theme.palette.primary.main, light ? 0.1 : 0.16),
              color: theme.palette.primary.main,
              '& .MuiListItemIcon-root': { color: theme.palette.primary.main },
              '&:hover': { backgroundColor: alpha(theme.palette.primary.main, light ? 0.14 : 0.22) },
            },
          },
        },
      },
      MuiListItemIcon: { styleOverrides: { root: { minWidth: 36 } } },
      MuiTab: { styleOverrides: { root: { textTransform: 'none', fontWeight: 600, minHeight: 44 } } },
      MuiTabs: { styleOverrides: { root: { minHeight: 44 } } },
      MuiAppBar: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiMenu: { styleOverrides: { paper: { backgroundImage: 'none' } } },
      MuiTooltip: { defaultProps: { arrow: true } },
      MuiButton: { styleOverrides: { root: { whiteSpace: 'nowrap' } } },
    },
  });
}
