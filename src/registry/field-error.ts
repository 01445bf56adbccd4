/**
 * One input a rule refuses, named by the field the request wrote it in (`nameservers[2]`,
 * `address.city`). Rules return lists of these, empty when the input is fine; the HTTP
 * layer answers them as a problem's `errors` (the same shape).
 */
export interface FieldError {
  field: string;
  message: string;
}
