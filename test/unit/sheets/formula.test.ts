import {shiftFormulaRows} from '../../../src/sheets/formula';

describe('shiftFormulaRows', () => {
  it('moves relative row references with the row', () => {
    expect(shiftFormulaRows('=B5*2', -2)).toBe('=B3*2');
    expect(shiftFormulaRows('=SUM(B5:C9)+Offers!A5', 3)).toBe(
      '=SUM(B8:C12)+Offers!A8',
    );
  });

  it('keeps absolute rows, whole columns, functions and quoted text', () => {
    expect(shiftFormulaRows('=B$5+$C$2+$D7', 1)).toBe('=B$5+$C$2+$D8');
    expect(shiftFormulaRows('=SUM(B:B)', 4)).toBe('=SUM(B:B)');
    expect(shiftFormulaRows('=LOG10(A2)&ATAN2(1,2)', 1)).toBe(
      '=LOG10(A3)&ATAN2(1,2)',
    );
    expect(shiftFormulaRows('=CONCAT("A1 stays", A1)', 1)).toBe(
      '=CONCAT("A1 stays", A2)',
    );
  });

  it('changes nothing when the row does not move', () => {
    expect(shiftFormulaRows('=B5*2', 0)).toBe('=B5*2');
  });

  it('breaks a reference moved above row 1, as Sheets does', () => {
    expect(shiftFormulaRows('=A2', -2)).toBe('=#REF!');
  });
});
