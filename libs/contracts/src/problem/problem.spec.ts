import { FieldErrors } from './problem';

describe('FieldErrors', () => {
  it("keeps a field path that names a member of Object.prototype as the client's path", () => {
    const errors = new FieldErrors().add('constructor', 'is not a field that can be updated').add('__proto__', 'is not a field that can be updated');
    errors.add('toString', 'x').add('toString', 'y');
    expect(JSON.parse(JSON.stringify(errors.toRecord()))).toEqual(
      JSON.parse('{"constructor":["is not a field that can be updated"],"__proto__":["is not a field that can be updated"],"toString":["x","y"]}'),
    );
    expect(errors.empty).toBe(false);
  });
});
