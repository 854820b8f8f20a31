import { Button, type ButtonProps } from 'antd';
import { useNavigate } from 'react-router';

/**
 * A button that is a link to an app route: a real href (open in a new tab, copy the address),
 * while a plain click navigates inside the app without reloading.
 */
export function LinkButton({ to, ...button }: Omit<ButtonProps, 'href' | 'onClick'> & { to: string }) {
  const navigate = useNavigate();
  return (
    <Button
      {...button}
      href={to}
      onClick={(event) => {
        event.preventDefault();
        navigate(to);
      }}
    />
  );
}
