import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';

interface NameWithBadgeProps {
  name: string;
  /** The badge's text; no badge when absent. */
  badge?: string;
  color: 'primary' | 'warning';
  /** What the badge means, on hover. */
  title?: string;
}

/** A row's name, followed by a small outlined badge that marks it (Admin, Empty). */
export function NameWithBadge({ name, badge, color, title }: NameWithBadgeProps) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <span>{name}</span>
      {badge ? (
        <Chip
          label={badge}
          size="small"
          color={color}
          variant="outlined"
          title={title}
          sx={{ height: 20, fontSize: 11 }}
        />
      ) : null}
    </Stack>
  );
}
