import Typography from '@mui/material/Typography';

/** One caption line under a task's status that sums up its outcome; `label` names it for screen readers. */
export function RecapLine({ label, text }: { label: string; text: string }) {
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      component="div"
      sx={{ whiteSpace: 'nowrap', mt: 0.25 }}
      aria-label={label}
    >
      {text}
    </Typography>
  );
}
