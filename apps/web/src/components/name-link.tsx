import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';

/** A list's name cell: the name, linking to the item's page, in full on hover where the column cuts it. */
export function NameLink({ to, name }: { to: string; name: string }) {
  return (
    <Link component={RouterLink} to={to} underline="hover" title={name} sx={{ fontWeight: 500 }}>
      {name}
    </Link>
  );
}
