/** The form kit: `<Form>` over a contract schema, its fields, and the server-error mapping. See form.tsx. */
export { Form, SubmitButton, useFormKit, type FormProps } from './form';
export { AllowedTagsField } from './allowed-tags-field';
export { FieldShell, type ControlProps, type FieldProps } from './field-shell';
export {
  CheckboxField,
  ComboboxField,
  DateTimeField,
  KeyValueField,
  NumberField,
  SecretField,
  SelectField,
  SwitchField,
  TagsField,
  TextareaField,
  TextField,
} from './fields';
export { applyServerErrors, fieldFor } from './server-errors';
export { isRequired, maxOf, schemaAt } from './schema';
