/** A multi-line text input with the console's look. */
import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { textareaClass } from '@/components/field';
import { cn } from '@/lib/cn';

export type TextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement>;

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaProps>(function Textarea({ className, ...props }, ref) {
  return (
    <textarea
      ref={ref}
      className={cn(textareaClass, 'disabled:cursor-not-allowed disabled:text-muted', className)}
      {...props}
    />
  );
});
