import Avatar from '@mui/material/Avatar';

/** Project badges cycle through these colours by the project's position in the list. */
const PROJECT_COLORS = ['#e53935', '#1e88e5', '#fb8c00', '#43a047'] as const;

function getProjectInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const [first = '', second] = words;
  const initials = second
    ? `${Array.from(first)[0] ?? ''}${Array.from(second)[0] ?? ''}`
    : Array.from(first).slice(0, 2).join('');
  return initials.toUpperCase() || '?';
}

function getProjectColor(index: number): string {
  return (
    PROJECT_COLORS[((index % PROJECT_COLORS.length) + PROJECT_COLORS.length) % PROJECT_COLORS.length] ??
    PROJECT_COLORS[0]
  );
}

export function ProjectAvatar({ name, index, size = 32 }: { name: string; index: number; size?: number }) {
  return (
    <Avatar
      variant="rounded"
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.4,
        fontWeight: 700,
        bgcolor: getProjectColor(index),
        color: '#fff',
        borderRadius: 1.5,
      }}
    >
      {getProjectInitials(name)}
    </Avatar>
  );
}
