import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import AppleIcon from '@mui/icons-material/Apple';
import FacebookIcon from '@mui/icons-material/Facebook';
import GitHubIcon from '@mui/icons-material/GitHub';
import GoogleIcon from '@mui/icons-material/Google';
import KeyIcon from '@mui/icons-material/Key';
import LinkedInIcon from '@mui/icons-material/LinkedIn';
import MicrosoftIcon from '@mui/icons-material/Microsoft';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import type { LoginOptions } from '@gantry/contract';

type OidcProvider = LoginOptions['oidc_providers'][number];

const KNOWN_ICONS: Record<string, ReactNode> = {
  apple: <AppleIcon />,
  facebook: <FacebookIcon />,
  github: <GitHubIcon />,
  google: <GoogleIcon />,
  linkedin: <LinkedInIcon />,
  microsoft: <MicrosoftIcon />,
};

/** Providers name an icon (Material Design Icons style, e.g. "github" or "mdi-github") or give an image URL. */
function renderIcon(icon: string): ReactNode {
  const name = icon.trim().toLowerCase().replace(/^mdi-/, '');
  if (!name) return <KeyIcon />;
  if (/^(https?:)?\/|^data:image\//.test(icon)) {
    return <Box component="img" src={icon} alt="" sx={{ width: 20, height: 20, objectFit: 'contain' }} />;
  }
  return KNOWN_ICONS[name] ?? <KeyIcon />;
}

export function OidcProviderButton({ provider }: { provider: OidcProvider }) {
  const location = useLocation();
  const theme = useTheme();
  let textColor: string | undefined;
  if (provider.color) {
    try {
      textColor = theme.palette.getContrastText(provider.color);
    } catch {
      // A CSS colour name that MUI cannot parse: white text reads on most brand colours.
      textColor = '#fff';
    }
  }
  // The page's query (where to return to) goes along; an error from an earlier attempt does not.
  const query = new URLSearchParams(location.search);
  query.delete('error');
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return (
    <Button
      href={`/api/auth/oidc/${encodeURIComponent(provider.id)}/login${search}`}
      variant="contained"
      color={provider.color ? undefined : 'secondary'}
      size="large"
      fullWidth
      disableElevation
      startIcon={renderIcon(provider.icon)}
      sx={
        provider.color
          ? {
              bgcolor: provider.color,
              color: textColor,
              '&:hover': { bgcolor: provider.color, filter: 'brightness(0.92)' },
            }
          : undefined
      }
    >
      {provider.name}
    </Button>
  );
}
