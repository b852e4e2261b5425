import {api, call, MAIN, setup} from './helpers';

describe('PUT tracking', () => {
  const {emulator, clock} = setup({clickTestSeconds: 60});
  const offer = [...emulator.account(MAIN).offers.values()].find(
    o => o.status === 'PENDING' && o.maintain_by === 'ADV',
  )!;
  const put = (fields: Record<string, unknown>) =>
    call(emulator, 'PUT', api('tracking'), {
      json: {
        offer_id: offer.offer_id,
        tracking_method: 'APPSFLYER',
        click_url: 'https://app.example.com/click?c={click_id}',
        support_server_click: 'NO',
        ...fields,
      },
    }).json;
  const listed = () =>
    call(emulator, 'GET', api('offers'), {query: {offer_id: offer.offer_id}})
      .json.data.list[0];

  it('sets the link, PENDDING until the test passes, then PASS and RUNNING', () => {
    expect(put({})).toEqual({code: 200, msg: 'success', data: {}});
    expect(listed()).toMatchObject({
      tracking_method: 'APPSFLYER',
      click_url: 'https://app.example.com/click?c={click_id}',
      click_url_status: 'PENDDING',
      status: 'PENDING',
    });
    clock.ms += 59_000;
    expect(listed().click_url_status).toBe('PENDDING');
    clock.ms += 1_000;
    expect(listed()).toMatchObject({
      click_url_status: 'PASS',
      status: 'RUNNING',
    });
  });

  it('keeps an offer PENDING after its link passed until its start time comes', () => {
    const later = [...emulator.account(MAIN).offers.values()].find(
      o =>
        o.maintain_by === 'ADV' &&
        o.offer_id !== offer.offer_id &&
        o.status === 'PENDING',
    )!;
    const startsAt = emulator.nowSeconds() + 3600;
    emulator.updateOffer(later.offer_id, {start_time: startsAt});
    const view = () =>
      call(emulator, 'GET', api('offers'), {query: {offer_id: later.offer_id}})
        .json.data.list[0];
    call(emulator, 'PUT', api('tracking'), {
      json: {
        offer_id: later.offer_id,
        tracking_method: 'APPSFLYER',
        click_url: 'https://app.example.com/click?c={click_id}',
        support_server_click: 'NO',
      },
    });
    clock.ms += 60_000;
    expect(view()).toMatchObject({click_url_status: 'PASS', status: 'PENDING'});
    clock.ms += 3600_000;
    expect(view()).toMatchObject({click_url_status: 'PASS', status: 'RUNNING'});
  });

  it('marks an empty click_url NOT_EXIST', () => {
    expect(put({click_url: ''}).code).toBe(200);
    expect(listed()).toMatchObject({
      click_url: '',
      click_url_status: 'NOT_EXIST',
    });
  });

  it.each([
    [
      'a click_url that is not a web address',
      {click_url: 'ftp://example.com/x'},
      {click_url: 'The click_url format is invalid.'},
    ],
    [
      'no click_url',
      {click_url: undefined},
      {click_url: 'The click_url field is required.'},
    ],
    [
      'an unknown tracking_method',
      {tracking_method: 'MY_TRACKER'},
      {tracking_method: 'The selected tracking_method is invalid.'},
    ],
    [
      'no support_server_click',
      {support_server_click: undefined},
      {support_server_click: 'The support_server_click field is required.'},
    ],
    [
      'an unknown offer',
      {offer_id: 1},
      {offer_id: 'The selected offer_id is invalid.'},
    ],
  ])('refuses %s with 10000', (_name, fields, data) => {
    expect(put(fields)).toEqual({code: 10000, msg: 'error', data});
  });

  it('refuses an offer maintained by AM', () => {
    const managed = [...emulator.account(MAIN).offers.values()].find(
      o => o.maintain_by === 'AM',
    )!;
    expect(put({offer_id: managed.offer_id}).code).toBe(10007);
  });
});

describe('PUT tracking with normalisesClickUrl (assumption 50a)', () => {
  it('keeps click_url with scheme and host in lower case, the rest as sent', () => {
    const {emulator} = setup({normalisesClickUrl: true});
    const offer = [...emulator.account(MAIN).offers.values()].find(
      o => o.maintain_by === 'ADV',
    )!;
    const reply = call(emulator, 'PUT', api('tracking'), {
      json: {
        offer_id: offer.offer_id,
        tracking_method: 'APPSFLYER',
        click_url: 'HTTPS://Track.Example.com/C?Id={click_id}',
        support_server_click: 'NO',
      },
    }).json;
    expect(reply.code).toBe(200);
    expect(emulator.offerView(offer.offer_id)!.click_url).toBe(
      'https://track.example.com/C?Id={click_id}',
    );
  });
});
