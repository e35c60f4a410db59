// Package web holds what every feature's HTTP layer shares: errors answered as {"msg"},
// the signed-in viewer, route access levels, and the page document around SSR output.
package web

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is an error with an HTTP status and a message fit for the user.
type Error struct {
	Status int
	Msg    string
	// Field names the request field the message is about (its JSON key), answered as
	// {"msg", "field"} so a form shows the message beside that field; "" for none.
	Field string
}

// On is a copy of e about one request field.
func (e *Error) On(field string) *Error {
	c := *e
	c.Field = field
	return &c
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Status, e.Msg) }

// E makes an *Error.
func E(status int, msg string) *Error { return &Error{Status: status, Msg: msg} }

// Shorthands for the statuses the API uses.
func BadRequest(msg string) *Error   { return E(http.StatusBadRequest, msg) }
func Unauthorized(msg string) *Error { return E(http.StatusUnauthorized, msg) }
func Forbidden(msg string) *Error    { return E(http.StatusForbidden, msg) }
func NotFound(msg string) *Error     { return E(http.StatusNotFound, msg) }
func Conflict(msg string) *Error     { return E(http.StatusConflict, msg) }
func Unprocessable(msg string) *Error {
	return E(http.StatusUnprocessableEntity, msg)
}
func TooLarge(msg string) *Error    { return E(http.StatusRequestEntityTooLarge, msg) }
func TooMany(msg string) *Error     { return E(http.StatusTooManyRequests, msg) }
func Unavailable(msg string) *Error { return E(http.StatusServiceUnavailable, msg) }

// Standard messages.
const (
	MsgLoginRequired = "Please log in to continue."
	MsgAdminRequired = "Access Denied: You need admin privileges to access this page."
	MsgInvalidJSON   = "The request body is not valid JSON."
	MsgInternal      = "Something went wrong on our side. Please try again."
	MsgUnavailable   = "The service is temporarily unavailable. Please try again in a moment."
)

// AsError extracts an *Error from err.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}
