// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @notice The part of a token the sale needs: minting (the sale holds the token's minter role).
interface IMintableToken {
    /// @notice Mints `amount` units to `to`.
    function mint(address to, uint256 amount) external;
}

/// @title TokenSale
/// @notice Sells a token at a fixed native-coin price between a start and an end time, up to a
/// hard cap overall and a cap per wallet. `buy` mints the tokens to the buyer at once; the owner
/// withdraws the proceeds.
contract TokenSale is Ownable, ReentrancyGuard {
    /// @notice The token sold (minted on each purchase).
    IMintableToken public immutable token;
    /// @notice Wei of the native coin per whole token (10**18 units).
    uint256 public immutable price;
    /// @notice First second (unix time) at which `buy` is accepted.
    uint64 public immutable startTime;
    /// @notice First second at which `buy` is refused again.
    uint64 public immutable endTime;
    /// @notice Most token units the sale sells in total.
    uint256 public immutable hardCap;
    /// @notice Most token units one wallet may buy in total.
    uint256 public immutable walletCap;

    /// @notice Token units sold so far.
    uint256 public sold;
    /// @notice Token units each wallet has bought.
    mapping(address buyer => uint256 amount) public bought;

    /// @notice A zero address among the constructor's or `withdraw`'s arguments.
    error ZeroAddress();
    /// @notice The window is empty (`startTime` not before `endTime`).
    error InvalidWindow(uint64 startTime, uint64 endTime);
    /// @notice A wallet cap of zero or above the hard cap.
    error InvalidCaps(uint256 hardCap, uint256 walletCap);
    /// @notice A purchase before `startTime`.
    error SaleNotStarted(uint64 startTime);
    /// @notice A purchase at or after `endTime`.
    error SaleEnded(uint64 endTime);
    /// @notice A purchase of zero tokens.
    error ZeroAmount();
    /// @notice The native coin sent is not the price of the tokens asked for.
    error WrongPayment(uint256 expected, uint256 sent);
    /// @notice The purchase would pass the hard cap; `remaining` is what the sale may still sell.
    error HardCapExceeded(uint256 remaining);
    /// @notice The purchase would pass the wallet cap; `remaining` is what the wallet may still buy.
    error WalletCapExceeded(uint256 remaining);
    /// @notice The native-coin transfer of the proceeds failed.
    error ProceedsTransferFailed();

    /// @notice `buyer` bought `amount` token units for `paid` wei.
    event Purchased(address indexed buyer, uint256 amount, uint256 paid);
    /// @notice The owner sent the proceeds to `to`.
    event ProceedsWithdrawn(address indexed to, uint256 amount);

    /// @param token_ The token sold; the sale must hold its minter role.
    /// @param price_ Wei per whole token.
    /// @param startTime_ Opening time (unix seconds).
    /// @param endTime_ Closing time (unix seconds), after `startTime_`.
    /// @param hardCap_ Most token units sold overall.
    /// @param walletCap_ Most token units per wallet (at most `hardCap_`).
    /// @param owner_ Receives ownership (withdraws the proceeds).
    constructor(
        IMintableToken token_,
        uint256 price_,
        uint64 startTime_,
        uint64 endTime_,
        uint256 hardCap_,
        uint256 walletCap_,
        address owner_
    ) Ownable(owner_) {
        if (address(token_) == address(0)) revert ZeroAddress();
        if (startTime_ >= endTime_) revert InvalidWindow(startTime_, endTime_);
        if (walletCap_ == 0 || walletCap_ > hardCap_) revert InvalidCaps(hardCap_, walletCap_);
        token = token_;
        price = price_;
        startTime = startTime_;
        endTime = endTime_;
        hardCap = hardCap_;
        walletCap = walletCap_;
    }

    /// @notice What `buy(amount)` costs, in wei (rounded up).
    function cost(uint256 amount) public view returns (uint256) {
        return Math.mulDiv(amount, price, 1e18, Math.Rounding.Ceil);
    }

    /// @notice Buys `amount` token units for exactly `cost(amount)` wei; the tokens arrive at once.
    function buy(uint256 amount) external payable nonReentrant {
        if (block.timestamp < startTime) revert SaleNotStarted(startTime);
        if (block.timestamp >= endTime) revert SaleEnded(endTime);
        if (amount == 0) revert ZeroAmount();
        uint256 expected = cost(amount);
        if (msg.value != expected) revert WrongPayment(expected, msg.value);
        if (sold + amount > hardCap) revert HardCapExceeded(hardCap - sold);
        uint256 already = bought[msg.sender];
        if (already + amount > walletCap) revert WalletCapExceeded(walletCap - already);
        sold += amount;
        bought[msg.sender] = already + amount;
        emit Purchased(msg.sender, amount, msg.value);
        token.mint(msg.sender, amount);
    }

    /// @notice Sends the whole native-coin balance to `to`.
    function withdraw(address payable to) external onlyOwner nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = address(this).balance;
        (bool sent,) = to.call{value: amount}("");
        if (!sent) revert ProceedsTransferFailed();
        emit ProceedsWithdrawn(to, amount);
    }
}
