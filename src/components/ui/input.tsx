/** A text input with the console's look; invalid (`aria-invalid`) inputs get a danger border. */
import { forwardRef, type InputHTMLAttributes } from 'react';
import { inputClass } from '@/components/field';
import { cn } from '@/lib/cn';

export type InputProps = InputHTMLAttributes<HTMLInputElement>;

export const Input = forwardRef<HTMLInputElement, InputProps>(function Input({ className, ...props }, ref) {
  return (
    <input
      ref={ref}
      className={cn(inputClass, 'disabled:cursor-not-allowed disabled:text-muted', className)}
      {...props}
    />
  );
});
