package application

import (
	"errors"
	"testing"

	"meritmark/app/model"
)

func TestLifecycle(t *testing.T) {
	const (
		aw = model.StatusAwaitingPayment
		pe = model.StatusPending
		ap = model.StatusApproved
		re = model.StatusRejected
		pc = model.PaymentCompleted
		pp = model.PaymentPending
	)
	cases := []struct {
		status, pay string
		ev          Event
		want        string
		err         error
	}{
		{aw, pp, EventPay, pe, nil},
		{pe, pc, EventPay, "", ErrTransition},
		{ap, pc, EventPay, "", ErrTransition},
		{pe, pc, EventApprove, ap, nil},
		{pe, pp, EventApprove, "", ErrPaymentRequired},
		{aw, pp, EventApprove, "", ErrPaymentRequired},
		{ap, pp, EventApprove, ap, nil}, // re-approve
		{re, pc, EventApprove, ap, nil}, // approve a rejected, paid application
		{aw, pp, EventGrantFree, ap, nil},
		{pe, pc, EventReject, re, nil},
		{ap, pc, EventReject, re, nil},
		{re, pc, EventReject, re, nil}, // re-reject
		{pe, pc, Event("bogus"), "", ErrTransition},
	}
	for _, c := range cases {
		got, err := Next(c.status, c.pay, c.ev)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("%s/%s --%s--> %q, %v; want %q, %v", c.status, c.pay, c.ev, got, err, c.want, c.err)
		}
	}
	if InitialStatus(0) != pe || InitialStatus(100) != aw {
		t.Error("initial status")
	}
	if !IsOpen(aw) || !IsOpen(pe) || IsOpen(ap) || IsOpen(re) {
		t.Error("IsOpen")
	}
}
