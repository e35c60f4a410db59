// Package application owns applications: submission with uploads, and the lifecycle.
package application

import (
	"errors"

	"meritmark/app/model"
)

// The lifecycle of an application is this one state machine:
//
//	submit (paid badge)        -> awaiting_payment
//	submit (free badge)        -> pending
//	pay / free grant           awaiting_payment -> pending
//	approve                    any -> approved (needs a completed payment, or already
//	                           approved, or an explicit grant without payment)
//	reject                     any -> rejected
//
// Admins may re-approve and re-reject from any status (spec section 4).

// Event is something that happens to an application.
type Event string

const (
	EventPay       Event = "pay"
	EventApprove   Event = "approve"
	EventGrantFree Event = "grant_free" // approve without payment ('Grant Free')
	EventReject    Event = "reject"
)

// ErrTransition is returned for a transition the lifecycle does not allow.
var ErrTransition = errors.New("application: transition not allowed")

// ErrPaymentRequired is returned when approving an unpaid application.
var ErrPaymentRequired = errors.New("application: payment must be completed before approval")

// InitialStatus is the status of a new application for a badge costing priceCents.
func InitialStatus(priceCents int64) string {
	if priceCents == 0 {
		return model.StatusPending
	}
	return model.StatusAwaitingPayment
}

// Next returns the status after ev, given the current status and payment status.
func Next(status, paymentStatus string, ev Event) (string, error) {
	switch ev {
	case EventPay:
		if status != model.StatusAwaitingPayment {
			return "", ErrTransition
		}
		return model.StatusPending, nil
	case EventApprove:
		if paymentStatus != model.PaymentCompleted && status != model.StatusApproved {
			return "", ErrPaymentRequired
		}
		return model.StatusApproved, nil
	case EventGrantFree:
		return model.StatusApproved, nil
	case EventReject:
		return model.StatusRejected, nil
	}
	return "", ErrTransition
}

// IsOpen reports whether an application in status blocks a new one for the same badge.
func IsOpen(status string) bool {
	return status == model.StatusAwaitingPayment || status == model.StatusPending
}
