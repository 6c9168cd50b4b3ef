import Box from '@mui/material/Box';

/** The product mark: a gantry crane's frame in a rounded square. */
export function GantryLogo({ size = 32 }: { size?: number }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 64 64"
      role="img"
      aria-label="Gantry"
      sx={{ width: size, height: size, flexShrink: 0, color: 'primary.main', display: 'block' }}
    >
      <rect width="64" height="64" rx="14" fill="currentColor" />
      <path d="M14 48V20h36v6H20v22zM28 48V32h22v6H34v10zM42 48v-6h8v6z" fill="#fff" />
    </Box>
  );
}
