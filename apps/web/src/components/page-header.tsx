import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface PageHeaderProps {
  title: string;
  /** Where the back arrow leads; no arrow without it. */
  backTo?: string;
  actions?: ReactNode;
  /** Rendered under the title row, e.g. tabs. */
  children?: ReactNode;
}

export function PageHeader({ title, backTo, actions, children }: PageHeaderProps) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · Gantry`;
  }, [title]);
  return (
    <Box sx={{ mb: 3 }}>
      <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', minHeight: 48, flexWrap: 'wrap' }}>
        {backTo ? (
          <IconButton component={RouterLink} to={backTo} aria-label={t('common.back')} edge="start">
            <ArrowBackIcon />
          </IconButton>
        ) : null}
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1, fontWeight: 600, minWidth: 0 }} noWrap>
          {title}
        </Typography>
        {actions ? (
          <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            {actions}
          </Stack>
        ) : null}
      </Stack>
      {children}
    </Box>
  );
}
