import type { ElementType } from 'react';
import { isCssColour } from '@gantry/contract';
import CloudOutlinedIcon from '@mui/icons-material/CloudOutlined';
import CodeIcon from '@mui/icons-material/Code';
import ParkOutlinedIcon from '@mui/icons-material/ParkOutlined';
import TerminalIcon from '@mui/icons-material/Terminal';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';

/** What the icon needs of an app; templates may name an app the server no longer has. */
export interface AppLook {
  id: string;
  title?: string;
  icon?: string;
  color?: string;
  dark_color?: string;
}

/** Apps name Material Design Icons (without their `mdi-` prefix); the common ones have a close match here. */
const ICONS: Record<string, ElementType> = {
  bash: TerminalIcon,
  powershell: TerminalIcon,
  console: TerminalIcon,
  'language-python': CodeIcon,
  'code-braces': CodeIcon,
  cloud: CloudOutlinedIcon,
  'pine-tree': ParkOutlinedIcon,
};

/** An app's icon in its colour; apps without a matching icon get their initial in a circle. */
export function AppIcon({ app, size = 20 }: { app: AppLook; size?: number }) {
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  const stored = dark ? app.dark_color || app.color : app.color;
  // Drawn into a style: only a colour gets there, whatever an older store holds.
  const color = stored && isCssColour(stored) ? stored : theme.palette.text.secondary;
  // "black" and "white" are the defaults of monochrome logos: follow the text colour instead.
  const resolved = ['black', '#000', '#000000', 'white', '#fff', '#ffffff'].includes(color.toLowerCase())
    ? theme.palette.text.primary
    : color;
  const Icon = app.icon ? ICONS[app.icon.replace(/^mdi-/, '')] : undefined;
  if (Icon)
    return (
      <Box component={Icon} aria-hidden sx={{ fontSize: size, color: resolved, display: 'block', flexShrink: 0 }} />
    );
  const initial = (app.title || app.id).charAt(0).toUpperCase();
  return (
    <Box
      aria-hidden
      sx={{
        width: size,
        height: size,
        borderRadius: '50%',
        border: 2,
        borderColor: resolved,
        color: resolved,
        display: 'grid',
        placeItems: 'center',
        fontSize: size * 0.55,
        fontWeight: 800,
        lineHeight: 1,
        flexShrink: 0,
      }}
    >
      {initial}
    </Box>
  );
}
