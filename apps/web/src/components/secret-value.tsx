import { useTranslation } from 'react-i18next';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import { TooltipIconButton } from './tooltip-icon-button.tsx';
import Typography from '@mui/material/Typography';
import { copyText } from '../lib/clipboard.ts';
import { getErrorMessage } from '../lib/api-client.ts';
import { useSnackbar } from './snackbar-provider.tsx';

interface SecretValueProps {
  value: string;
  /** Names the value for screen readers and the copy button ("API token", "Recovery code"). */
  label: string;
  /** The copy button's name where "Copy <label>" does not read well ("Copy the command"). */
  copyLabel?: string;
  /** The confirmation after copying; "Copied to the clipboard." unless the screen says what was copied. */
  copiedMessage?: string;
  /** The failure text where the screen names what could not be copied. */
  copyFailedMessage?: (reason: string) => string;
}

/**
 * A value to copy (a new API token, a recovery code, a command line): monospace, selectable,
 * wrapping anywhere, with a copy button.
 */
export function SecretValue({ value, label, copyLabel, copiedMessage, copyFailedMessage }: SecretValueProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const buttonLabel = copyLabel ?? t('account.copyNamed', { name: label });
  const copy = async () => {
    try {
      await copyText(value);
      snackbar.showSuccess(copiedMessage ?? t('account.copied'));
    } catch (error) {
      const reason = getErrorMessage(error);
      snackbar.showError(copyFailedMessage ? copyFailedMessage(reason) : t('account.copyFailed', { reason }));
    }
  };
  return (
    <Box
      sx={(theme) => ({
        display: 'flex',
        alignItems: 'flex-start',
        gap: 1,
        pl: 1.5,
        pr: 0.5,
        py: 0.5,
        borderRadius: 1,
        bgcolor: theme.palette.mode === 'dark' ? 'grey.900' : 'grey.100',
        border: 1,
        borderColor: 'divider',
      })}
    >
      <Typography
        component="code"
        aria-label={label}
        sx={{
          fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
          fontSize: 13,
          py: 0.75,
          flexGrow: 1,
          minWidth: 0,
          overflowWrap: 'anywhere',
          userSelect: 'all',
        }}
      >
        {value}
      </Typography>
      <TooltipIconButton
        title={copyLabel ?? t('account.copy')}
        label={buttonLabel}
        size="small"
        onClick={() => void copy()}
      >
        <ContentCopyIcon fontSize="small" />
      </TooltipIconButton>
    </Box>
  );
}
