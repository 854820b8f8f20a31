import { Button, type ButtonProps, Tooltip } from 'antd';

/** An icon button named by its tooltip: the one label is both the tooltip and the accessible name. */
export function TipButton({
  label,
  testId,
  ...button
}: Omit<ButtonProps, 'title'> & { label: string; testId?: string }) {
  return (
    <Tooltip title={label}>
      <Button {...button} aria-label={label} data-testid={testId} />
    </Tooltip>
  );
}
